export * from "./key";
export * from "./storage";
export * from "./middleware";
