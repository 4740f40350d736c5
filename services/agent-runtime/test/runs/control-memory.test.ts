import { describeRunControl } from "./control-suite";

describeRunControl("memory");
