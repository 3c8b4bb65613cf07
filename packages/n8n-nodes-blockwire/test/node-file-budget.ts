/**
 * The most a node file may weigh (n8n requires every one of them at start). 200 KB since the rpc
 * client carries contract reads (abitype's fragment parser and an ABI codec, about 27 KB of the
 * Blockwire node: 149,391 bytes before, 176,000 after, bundled from source with esbuild).
 */
export const MAX_NODE_FILE_BYTES = 200 * 1024;
