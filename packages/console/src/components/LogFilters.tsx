import { SelectField } from "./SelectField";

/** The levels a log view filters by, each meaning "this and above". */
export const LOG_LEVELS = ["debug", "info", "warn", "error"];

export interface LogFilterState {
  level: string;
  setLevel(level: string): void;
  query: string;
  setQuery(query: string): void;
  follow: boolean;
  setFollow(follow: boolean): void;
}

/** A log view's filters: the lowest level, a text the lines contain, and follow mode. */
export function LogFilters({ level, setLevel, query, setQuery, follow, setFollow }: LogFilterState) {
  return (
    <div className="filters">
      <SelectField
        label="Level"
        value={level}
        options={LOG_LEVELS}
        optionLabel={(name) => `${name} and above`}
        onChange={setLevel}
      />
      <label>
        Contains
        <input value={query} onChange={(event) => setQuery(event.target.value)} />
      </label>
      <label className="inline">
        <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.target.checked)} /> Follow
      </label>
    </div>
  );
}
