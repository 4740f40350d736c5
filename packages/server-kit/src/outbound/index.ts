export { NETWORK_NAMES, NETWORKS, type NetworkName } from "./networks";
export { OutboundPolicy, OutboundRefusedError, literalAddress } from "./policy";
export { outboundFetch, refusalOf, type OutboundFetch } from "./fetch";
