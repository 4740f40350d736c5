// Threads of the JS examples.
import { describeThreads } from "./suite";

describeThreads("js");
