// The thread-centric protocol with the in-process queue and event log (the embedded start).
import { protocolSuite } from "./suite";

protocolSuite({ redis: false });
