// Runs an assistant for an A2A message: the message's text parts as a user message on the thread
// of the A2A context (created on first use), and the assistant's last reply as the task's answer.
import { randomUUID } from "node:crypto";
// The SDK's types are declared as ES module ones; its CommonJS build is what runs here.
import type { Message, Task, TaskStatusUpdateEvent } from "@a2a-js/sdk" with { "resolution-mode": "import" };
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server" with {
  "resolution-mode": "import",
};
import { v5 as uuidv5, validate as isUuid } from "uuid";
import type { AuthContext } from "../auth";
import type { RunService } from "../runs/service";

/** Threads of A2A contexts whose id is not a UUID: a UUID derived from it, always the same. */
const CONTEXT_NAMESPACE = "5d1c0e42-8f0b-4c3a-9d55-2f3a1a3c9e10";

export function threadOfContext(contextId: string): string {
  return isUuid(contextId) ? contextId : uuidv5(contextId, CONTEXT_NAMESPACE);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((block) => (typeof block === "string" ? block : ((block as { text?: string }).text ?? "")))
      .join("");
  return "";
}

export class AssistantExecutor implements AgentExecutor {
  /** Runs of tasks executing in this process, for cancel. */
  private readonly running = new Map<string, { threadId: string; runId: string }>();

  constructor(
    private readonly runs: RunService,
    private readonly assistantId: string,
    private readonly auth?: AuthContext,
  ) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = context;
    if (!context.task) {
      const task: Task = {
        kind: "task",
        id: taskId,
        contextId,
        status: { state: "submitted", timestamp: new Date().toISOString() },
        history: [userMessage],
      };
      bus.publish(task);
    }
    const status = (state: TaskStatusUpdateEvent["status"]["state"], final: boolean, text?: string) => {
      const message: Message | undefined =
        text === undefined
          ? undefined
          : {
              kind: "message",
              role: "agent",
              messageId: randomUUID(),
              parts: [{ kind: "text", text }],
              taskId,
              contextId,
            };
      bus.publish({
        kind: "status-update",
        taskId,
        contextId,
        status: { state, timestamp: new Date().toISOString(), ...(message ? { message } : {}) },
        final,
      });
    };
    status("working", false);
    const text = userMessage.parts
      .filter((part) => part.kind === "text")
      .map((part) => (part as { text: string }).text)
      .join("\n");
    const threadId = threadOfContext(contextId);
    try {
      const run = await this.runs.create(
        threadId,
        {
          assistant_id: this.assistantId,
          input: { messages: [{ role: "user", content: text }] },
          if_not_exists: "create",
          multitask_strategy: "enqueue",
          metadata: { a2a_task_id: taskId },
        },
        { auth: this.auth },
      );
      this.running.set(taskId, { threadId, runId: run.run_id });
      const outcome = await this.runs.join(threadId, run.run_id, undefined, this.auth);
      if (outcome.error) {
        status("failed", true, `${outcome.error.error}: ${outcome.error.message}`);
      } else {
        const messages = (outcome.values as { messages?: { content?: unknown }[] }).messages ?? [];
        status("completed", true, textOf(messages.at(-1)?.content));
      }
    } catch (error) {
      status("failed", true, (error as Error).message);
    } finally {
      this.running.delete(taskId);
      bus.finished();
    }
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const running = this.running.get(taskId);
    if (running) await this.runs.cancel(running.threadId, running.runId, { auth: this.auth }).catch(() => undefined);
    bus.publish({
      kind: "status-update",
      taskId,
      contextId: "",
      status: { state: "canceled", timestamp: new Date().toISOString() },
      final: true,
    });
    bus.finished();
  }
}
