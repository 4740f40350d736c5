export * from "./model";
export { ListenerRepository } from "./repository";
export { ListenerService, presentListener } from "./service";
export { listenersRouter } from "./routes";
export { checkPlacement, requestedPlacement, type Placement } from "./placement";
