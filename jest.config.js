/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/packages", "<rootDir>/services", "<rootDir>/scripts"],
  testMatch: ["**/test/**/*.test.ts"],
  transform: {
    // Transpile only (isolatedModules): type checking is `npm run check`'s job, and it keeps tests fast.
    "^.+\\.tsx?$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.jest.json", isolatedModules: true, diagnostics: false }],
  },
  // Only our TypeScript is transformed; dependencies are loaded as the CommonJS they ship.
  transformIgnorePatterns: ["/node_modules/"],
  setupFiles: ["<rootDir>/jest.setup.js"],
  testTimeout: 60_000,
  // Two cores: test files run in parallel in two workers; each file has its own database.
  maxWorkers: process.env.JEST_WORKERS ?? 2,
};
