// What a message says, short, in the person's language (Spanish by default). A code
// message carries only the code and its validity: no name, no link, nothing to phish with.
export const LANGUAGES = ['es', 'pt-BR', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
/** A text in every language a person reads the platform in. */
export type Words = Readonly<Record<Language, string>>;
/** Texts by their code (a reason, a problem), each in every language. */
export type WordsByCode = Readonly<Record<string, Words>>;
export const asLanguage = (value: string | null | undefined): Language => (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : 'es';

/**
 * The first language of an Accept-Language header the service speaks, by the header's
 * weights (`es*` Spanish, `pt*` Portuguese, `en*` English); undefined for none. What a
 * request asks for: the store app's answers and an import's files for people.
 */
export function acceptedLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const tags = header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((t) => t.tag !== '' && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of tags) {
    if (tag === 'es' || tag.startsWith('es-')) return 'es';
    if (tag === 'pt' || tag.startsWith('pt-')) return 'pt-BR';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return undefined;
}

export interface Rendered {
  subject: string;
  body: string;
}

export function codeMessage(language: Language, code: string, minutes: number): Rendered {
  switch (language) {
    case 'pt-BR':
      return { subject: 'Seu código de acesso', body: `Seu código é ${code}. Vale por ${minutes} minutos.` };
    case 'en':
      return { subject: 'Your sign-in code', body: `Your code is ${code}. It is valid for ${minutes} minutes.` };
    default:
      return { subject: 'Tu código de acceso', body: `Tu código es ${code}. Vale por ${minutes} minutos.` };
  }
}

/** An invitation to a supplier's console; `url` is the console's own address (nothing else links out). */
export function invitationMessage(language: Language, supplier: string, role: string, url: string): Rendered {
  switch (language) {
    case 'pt-BR':
      return { subject: `Convite para o console de ${supplier}`, body: `Você foi convidado ao console de ${supplier} (papel: ${role}). Entre com este email em ${url}` };
    case 'en':
      return { subject: `Invitation to ${supplier}'s console`, body: `You were invited to ${supplier}'s console (role: ${role}). Sign in with this email at ${url}` };
    default:
      return { subject: `Invitación a la consola de ${supplier}`, body: `Te invitaron a la consola de ${supplier} (rol: ${role}). Ingresa con este email en ${url}` };
  }
}

/** The in-app events a person may also receive as a message. */
export const MESSAGE_EVENTS = ['TICKET_INFO_REQUESTED', 'ORDER_CONFIRMED', 'ORDER_DELIVERED', 'ORDER_CANCELLED'] as const;
export type MessageEvent = (typeof MESSAGE_EVENTS)[number];

const EVENTS: Record<Language, Record<MessageEvent, (ref: string, store: string) => Rendered>> = {
  es: {
    TICKET_INFO_REQUESTED: (ref, store) => ({ subject: 'Te pedimos más información', body: `${store} necesita más información sobre tu solicitud ${ref}.` }),
    ORDER_CONFIRMED: (ref, store) => ({ subject: 'Pedido confirmado', body: `${store}: tu pedido ${ref} fue confirmado.` }),
    ORDER_DELIVERED: (ref, store) => ({ subject: 'Pedido entregado', body: `${store}: tu pedido ${ref} fue entregado.` }),
    ORDER_CANCELLED: (ref, store) => ({ subject: 'Pedido cancelado', body: `${store}: tu pedido ${ref} fue cancelado.` }),
  },
  'pt-BR': {
    TICKET_INFO_REQUESTED: (ref, store) => ({ subject: 'Precisamos de mais informações', body: `${store} precisa de mais informações sobre sua solicitação ${ref}.` }),
    ORDER_CONFIRMED: (ref, store) => ({ subject: 'Pedido confirmado', body: `${store}: seu pedido ${ref} foi confirmado.` }),
    ORDER_DELIVERED: (ref, store) => ({ subject: 'Pedido entregue', body: `${store}: seu pedido ${ref} foi entregue.` }),
    ORDER_CANCELLED: (ref, store) => ({ subject: 'Pedido cancelado', body: `${store}: seu pedido ${ref} foi cancelado.` }),
  },
  en: {
    TICKET_INFO_REQUESTED: (ref, store) => ({ subject: 'More information needed', body: `${store} needs more information about your request ${ref}.` }),
    ORDER_CONFIRMED: (ref, store) => ({ subject: 'Order confirmed', body: `${store}: your order ${ref} was confirmed.` }),
    ORDER_DELIVERED: (ref, store) => ({ subject: 'Order delivered', body: `${store}: your order ${ref} was delivered.` }),
    ORDER_CANCELLED: (ref, store) => ({ subject: 'Order cancelled', body: `${store}: your order ${ref} was cancelled.` }),
  },
};

/** A delivery of fewer packages than ordered is told as such, with how many came (issue 34). */
const PARTLY_DELIVERED: Record<Language, (ref: string, store: string, delivered: number, ordered: number) => Rendered> = {
  es: (ref, store, d, o) => ({ subject: 'Pedido entregado en parte', body: `${store}: tu pedido ${ref} fue entregado en parte: ${d} de ${o} paquetes.` }),
  'pt-BR': (ref, store, d, o) => ({ subject: 'Pedido entregue em parte', body: `${store}: seu pedido ${ref} foi entregue em parte: ${d} de ${o} pacotes.` }),
  en: (ref, store, d, o) => ({ subject: 'Order partly delivered', body: `${store}: your order ${ref} was partly delivered: ${d} of ${o} packages.` }),
};

export const eventMessage = (language: Language, event: MessageEvent, ref: string, store: string, packages?: { delivered: number; ordered: number }): Rendered =>
  event === 'ORDER_DELIVERED' && packages && packages.delivered < packages.ordered
    ? PARTLY_DELIVERED[language](ref, store, packages.delivered, packages.ordered)
    : EVENTS[language][event](ref, store);
