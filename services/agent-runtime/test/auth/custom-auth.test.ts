// Custom auth with a JS `Auth` (@langchain/langgraph-sdk/auth).
import { describeCustomAuth } from "./custom-auth-suite";

describeCustomAuth("js");
