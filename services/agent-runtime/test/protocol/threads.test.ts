// The thread-centric protocol with the in-process queue's runs on a worker thread: the thread's
// log is written from the worker thread, read on the main one.
import { protocolSuite } from "./suite";

protocolSuite({ redis: false, workerThreads: 1 });
