// Which identifiers a test twin's inbox may hold codes for (src/modules/sandbox/README.md,
// "Messages"). A sandbox is given the code of any identifier its store users name and no
// live store's does; were that a real person's phone or email, the integrator could sign
// in as them (and keep the person when a live store names them later). So codes land in
// the inbox only for identifiers nobody can own: emails at the domains RFC 2606 and RFC
// 6761 reserve (.test, .example, .invalid, .localhost, example.com/net/org) and the phone
// numbers the North American plan reserves for fiction (+1 NXX 555 0100 to 0199).

const RESERVED_DOMAIN = /@(?:[^@]+\.)?(?:test|example|invalid|localhost|example\.com|example\.net|example\.org)$/i;
const FICTIONAL_PHONE = /^\+1\d{3}55501\d{2}$/;

export const isReservedForTests = (kind: 'phone' | 'email', identifier: string) =>
  kind === 'email' ? RESERVED_DOMAIN.test(identifier) : FICTIONAL_PHONE.test(identifier);

export const WITHHELD =
  'withheld: a test store user signs in with an identifier reserved for tests (an email at example.com, .test or .example; a phone +1 NXX 555 01XX)';
