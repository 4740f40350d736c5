// A component file that does not build (for the start-up failure test): it imports a file that is not there.
import Missing from "./missing-component.js";

export default { missing: Missing };
