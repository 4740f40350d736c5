import { RecordingPool } from "./recording-pool";

/**
 * A real pool whose checkpoint saves (into one schema's `checkpoints`) can be slowed down, or
 * refuse the checkpoint of one step.
 */
export class FaultyPool extends RecordingPool {
  delayMs = 0;
  /** Every statement storing the checkpoint of this step fails. */
  failStep?: number;
  private readonly insert: RegExp;

  constructor(options: ConstructorParameters<typeof RecordingPool>[0] & { schema: string }) {
    const { schema, ...rest } = options;
    super(rest);
    this.insert = new RegExp(`INSERT INTO "${schema}"\\.checkpoints `);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const text: string = typeof args[0] === "string" ? args[0] : args[0].text;
    if (!this.insert.test(text)) return super.query(...args);
    const values: unknown[] = (typeof args[0] === "string" ? args[1] : args[0].values) ?? [];
    // The checkpoints' metadata go as an array of JSON texts.
    const texts = values.flat().filter((value): value is string => typeof value === "string");
    if (this.failStep !== undefined && texts.some((text) => text.includes(`"step":${this.failStep},`))) {
      return Promise.reject(new Error("this checkpoint save fails"));
    }
    if (!this.delayMs) return super.query(...args);
    return new Promise((resolve) => setTimeout(resolve, this.delayMs)).then(() => super.query(...args));
  }

  reset(): void {
    this.delayMs = 0;
    this.failStep = undefined;
  }
}
