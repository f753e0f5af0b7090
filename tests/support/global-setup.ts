import { IMAGE_NODE_LINE, installNode } from "./node-line";

/** Before any worker starts: the image's Node line for the "node-24" project. */
export default function globalSetup() {
  const binary = installNode(IMAGE_NODE_LINE);
  console.log(`Node ${IMAGE_NODE_LINE}: ${binary}`);
}
