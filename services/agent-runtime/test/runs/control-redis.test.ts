import { describeRunControl } from "./control-suite";

describeRunControl("redis");
