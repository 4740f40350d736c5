// What the traces' Redis spans state of a command: its name, and the key of a data command; never
// a value, and never another command's arguments (AUTH's is the password).
import { redisStatement } from "../src/tracing/sdk";

test("a data command states its key, not its values", () => {
  expect(redisStatement("xadd", ["lgp:events:run-1", "*", "event", "values", "data", '{"input":"secret"}'])).toBe(
    "xadd lgp:events:run-1",
  );
  expect(redisStatement("HSET", ["lgp:run:1", "field", "value"])).toBe("HSET lgp:run:1");
});

test("any other command states its name only", () => {
  expect(redisStatement("auth", ["default", "s3cret-password"])).toBe("auth");
  expect(redisStatement("auth", ["s3cret-password"])).toBe("auth");
  expect(redisStatement("evalsha", ["abc123", "2", "bull:runs:wait", '{"runId":"1","input":"secret"}'])).toBe(
    "evalsha",
  );
  expect(redisStatement("hello", ["3", "AUTH", "default", "s3cret-password"])).toBe("hello");
  expect(redisStatement("config", ["set", "requirepass", "s3cret-password"])).toBe("config");
});

test("a key too long to be a key is not stated", () => {
  expect(redisStatement("set", ["x".repeat(500), "value"])).toBe("set");
});
