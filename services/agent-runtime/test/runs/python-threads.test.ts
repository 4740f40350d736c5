// The run tests against the Python twins with the in-process queue's runs on a worker thread (its own Python graph host).
import { describeRuns } from "./suite";

describeRuns("threads", "python");
