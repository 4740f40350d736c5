// Tests check every response against the contract, and log only warnings and worse.
process.env.VALIDATE_RESPONSES ??= "true";
process.env.LOG_LEVEL ??= "warn";
