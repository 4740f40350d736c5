// Threads of the Python twins of the examples (run by the Python graph host).
import { describeThreads } from "./suite";

describeThreads("python");
