// Custom auth with a Python `Auth` (langgraph_sdk.auth), run by the Python graph host, over Python graphs.
import { describeCustomAuth } from "./custom-auth-suite";

describeCustomAuth("python");
