// The thread-centric protocol with BullMQ and Redis Streams.
import { protocolSuite } from "./suite";

protocolSuite({ redis: true });
