/**
 * The last guard before the disk: any known secret (the owner token, provider keys, device
 * tokens) found in a record's text is replaced, so a secret that leaked into a value (a receipt,
 * a tool result) never reaches a recording. Secrets shorter than 8 characters are not secrets
 * the cockpit issues and are ignored (they would match ordinary text).
 */
export function createScrubber(secrets: () => readonly string[]): (text: string) => string {
  return (text) => {
    let out = text;
    for (const secret of secrets()) {
      if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join('[redacted]');
      // JSON escapes some characters: look for the escaped form too.
      const escaped = JSON.stringify(secret).slice(1, -1);
      if (escaped !== secret && escaped.length >= 8 && out.includes(escaped))
        out = out.split(escaped).join('[redacted]');
    }
    return out;
  };
}
