import { CronExpressionParser } from "cron-parser";
import { invalid } from "@lgp/server-kit";

/** Checks an IANA zone name ("Europe/Paris"); a 422 at `loc` when the platform does not know it. */
export function checkTimezone(timezone: string, loc: (string | number)[] = ["body", "timezone"]): void {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
  } catch {
    throw invalid(loc, `"${timezone}" is not an IANA time zone (e.g. "America/New_York")`);
  }
}

/** Checks a cron expression (5 fields, or 6 with seconds first); a 422 names what is wrong. */
export function checkSchedule(schedule: string): void {
  const fields = schedule.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) {
    throw invalid(
      ["body", "schedule"],
      `"${schedule}" is not a cron expression: expected 5 fields (or 6 with seconds)`,
    );
  }
  try {
    CronExpressionParser.parse(schedule, { tz: "UTC", strict: false });
  } catch (error) {
    throw invalid(["body", "schedule"], `"${schedule}" is not a cron expression: ${(error as Error).message}`);
  }
}

/**
 * The first tick strictly after `after`, the schedule read in `timezone` (UTC when null), or null
 * when there is none before `endTime`.
 */
export function nextTick(schedule: string, after: Date, endTime?: Date | null, timezone?: string | null): Date | null {
  try {
    const expression = CronExpressionParser.parse(schedule, {
      tz: timezone ?? "UTC",
      currentDate: after,
      ...(endTime ? { endDate: endTime } : {}),
    });
    if (endTime && !expression.hasNext()) return null;
    return expression.next().toDate();
  } catch {
    return null;
  }
}

/** The schedule's last tick at or before `at` (`at` itself when none can be computed). */
export function tickAtOrBefore(schedule: string, at: Date, timezone?: string | null): Date {
  try {
    const expression = CronExpressionParser.parse(schedule, {
      tz: timezone ?? "UTC",
      currentDate: new Date(at.getTime() + 1),
    });
    return expression.prev().toDate();
  } catch {
    return at;
  }
}
