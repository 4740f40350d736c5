// Run control with the in-process queue's runs on two worker threads: cancels, multitask
// strategies and joins reach runs wherever they execute.
import { describeRunControl } from "./control-suite";

describeRunControl("threads");
