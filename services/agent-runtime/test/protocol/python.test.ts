// The thread-centric protocol against the Python twins of its graphs (run by the Python graph host).
import { protocolSuite } from "./suite";

protocolSuite({ redis: false, language: "python" });
