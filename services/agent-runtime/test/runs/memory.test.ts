import { describeRuns } from "./suite";

describeRuns("memory");
