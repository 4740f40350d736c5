// A2A tasks in PostgreSQL, one row each, scoped to the assistant they were sent to: the SDK's
// request handler saves a task at every event, and `tasks/get` may reach any replica.
// The SDK's types are declared as ES module ones; its CommonJS build is what runs here.
import type { Task } from "@a2a-js/sdk" with { "resolution-mode": "import" };
import type { TaskStore } from "@a2a-js/sdk/server" with { "resolution-mode": "import" };
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";

export class PostgresTaskStore implements TaskStore {
  constructor(
    private readonly db: Db,
    private readonly assistantId: string,
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
    return row ? (row.task as unknown as Task) : undefined;
  }
}
