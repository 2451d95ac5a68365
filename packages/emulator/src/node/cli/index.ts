// The emulator's command line, as `@dataworkz/emulator/cli`: for a command that runs the emulator
// (the `dataworkz emulator` of the CLI), with the same flags, defaults and help as `dataworkz-emulator`.

export { flags as emulatorFlags } from './arguments.js';
export { type EmulatorCommandIo, runEmulatorCommand } from './command.js';
