/** vendctl as a library: the CLI entry point and the pieces it is made of (tests and scripts use them). */
export { main, buildProgram, EXIT_CODES, type CliDeps } from './cli.ts';
export { CliError } from './errors.ts';
export { CloudClient, type CloudOptions, type RolloutInput } from './cloud.ts';
export { keygen, loadPublicKey, loadSecretKey, PRIVATE_KEY_FILE, PUBLIC_KEY_FILE } from './keys.ts';
export { listTree, packRelease, PACK_MTIME, type PackResult } from './pack.ts';
export { signManifest, type SignOptions } from './sign.ts';
export { artifactName, checkArtifact, uploadArtifact } from './upload.ts';
export { renderFleet, renderReleases, describeRollout } from './format.ts';
export { silentProgress, terminalProgress, type Progress } from './progress.ts';
