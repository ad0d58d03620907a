// Prints the worked examples embedded in docs/vmc-protocol.md, computed by the codec itself.
// Usage: npx tsx scripts/vmc-protocol-examples.ts
import { renderVmcExamples } from '@vend/protocol/examples/vmc';

process.stdout.write(renderVmcExamples() + '\n');
