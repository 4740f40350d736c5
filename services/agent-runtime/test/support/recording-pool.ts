import pg from "pg";

/** A pool that remembers the text of every statement sent through it. */
export class RecordingPool extends pg.Pool {
  readonly sent: string[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    this.sent.push(typeof args[0] === "string" ? args[0] : args[0].text);
    return (super.query as (...a: unknown[]) => unknown)(...args);
  }
}
