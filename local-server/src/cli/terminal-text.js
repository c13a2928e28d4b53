// What the command line prints to a terminal (issue 40 item 12): text from the network (an
// OSC-in address, a /tutti/start string, a file's names) can hold control characters, and a
// terminal acts on them: ESC sequences clear the screen, erase a line, set the title or write
// the clipboard (OSC 52). Every C0 and C1 control character but the newline and the tab is
// shown as its escape (`\x1b`) at the one place the CLI writes, whatever the message.

/** C0 (but \t and \n), DEL and C1. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * The text with every control character made visible as `\xHH`.
 * @param {unknown} text
 * @returns {string}
 */
export function visibleControls(text) {
  return String(text).replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * A line writer that shows control characters instead of sending them to the terminal.
 * @param {(line: string) => void} write
 * @returns {(line: string) => void}
 */
export function terminalWriter(write) {
  return (line) => write(visibleControls(line));
}
