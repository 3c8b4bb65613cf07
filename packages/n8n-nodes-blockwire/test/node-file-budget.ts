/**
 * The most a node file may weigh (n8n requires every one of them at start). The code both nodes
 * share (the SDK's operation layer) is one chunk both require, so each node file holds only what
 * is its own; all a package's files load within twice this (the scanner test holds both).
 */
export const MAX_NODE_FILE_BYTES = 150 * 1024;
