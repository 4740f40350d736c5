import { describeRuns } from "./suite";

describeRuns("redis");
