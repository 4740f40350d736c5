// A2A tasks in PostgreSQL, one row each, scoped to the assistant they were sent to and to the
// caller's sight of the task's thread: the SDK's request handler saves a task at every event, and
// `tasks/get` may reach any replica.
// The SDK's types are declared as ES module ones; its CommonJS build is what runs here.
import type { Task } from "@a2a-js/sdk" with { "resolution-mode": "import" };
import type { TaskStore } from "@a2a-js/sdk/server" with { "resolution-mode": "import" };
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";

export class PostgresTaskStore implements TaskStore {
  constructor(
    private readonly db: Db,
    private readonly assistantId: string,
    /** Whether the caller may see the thread of a task's context (custom auth); absent: everyone. */
    private readonly visible?: (contextId: string) => Promise<boolean>,
  ) {}

  async save(task: Task): Promise<void> {
    const json = task as unknown as Prisma.InputJsonValue;
    await this.db.a2aTask.upsert({
      where: { taskId: task.id },
      create: { taskId: task.id, assistantId: this.assistantId, task: json },
      update: { task: json, updatedAt: new Date() },
    });
  }

  async load(taskId: string): Promise<Task | undefined> {
    const row = await this.db.a2aTask.findFirst({ where: { taskId, assistantId: this.assistantId } });
    if (!row) return undefined;
    const task = row.task as unknown as Task;
    // Another user's task is absent, as their thread is.
    if (this.visible && !(await this.visible(task.contextId))) return undefined;
    return task;
  }
}
