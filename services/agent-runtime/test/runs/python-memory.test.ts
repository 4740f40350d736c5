// The run tests against the Python twins of the examples (run by the Python graph host).
import { describeRuns } from "./suite";

describeRuns("memory", "python");
