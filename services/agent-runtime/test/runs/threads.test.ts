// The run tests with the in-process queue's runs executed on a worker thread (WORKER_THREADS=1).
import { describeRuns } from "./suite";

describeRuns("threads");
