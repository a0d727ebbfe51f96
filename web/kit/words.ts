// The words the kit's parts say (the states, the code sign-in's steps, the language switch,
// signing out) and the problems every sign-in and write can meet, the same in both apps.
// Each app's catalog starts with them (`...KIT_WORDS.es`) and may say any of them its own way.
// Every other word is the app's own (web/lib/i18n.ts, web/console/words.ts).
import type { Language } from './i18n.ts';

const es = {
  'app.skip': 'Saltar al contenido',
  'lang.label': 'Idioma',
  'signout': 'Salir',
  'state.loading': 'Cargando…',
  'state.retry': 'Reintentar',
  'state.error': 'Algo salió mal.',
  'signin.send': 'Enviar código',
  'signin.code': 'Código de 6 dígitos',
  'signin.enter': 'Entrar',
  'error.UNAUTHENTICATED': 'El código es incorrecto, venció o ya se usó.',
  'error.RATE_LIMITED': 'Demasiados intentos. Espera unos minutos.',
  'error.INVALID_STATE': 'Ya no se puede hacer esto: el estado cambió.',
};

const en: Record<keyof typeof es, string> = {
  'app.skip': 'Skip to content',
  'lang.label': 'Language',
  'signout': 'Sign out',
  'state.loading': 'Loading…',
  'state.retry': 'Try again',
  'state.error': 'Something went wrong.',
  'signin.send': 'Send code',
  'signin.code': '6-digit code',
  'signin.enter': 'Sign in',
  'error.UNAUTHENTICATED': 'The code is wrong, expired or already used.',
  'error.RATE_LIMITED': 'Too many tries. Wait a few minutes.',
  'error.INVALID_STATE': 'This can no longer be done: the status changed.',
};

const ptBR: Record<keyof typeof es, string> = {
  'app.skip': 'Pular para o conteúdo',
  'lang.label': 'Idioma',
  'signout': 'Sair',
  'state.loading': 'Carregando…',
  'state.retry': 'Tentar de novo',
  'state.error': 'Algo deu errado.',
  'signin.send': 'Enviar código',
  'signin.code': 'Código de 6 dígitos',
  'signin.enter': 'Entrar',
  'error.UNAUTHENTICATED': 'O código está errado, venceu ou já foi usado.',
  'error.RATE_LIMITED': 'Muitas tentativas. Espere alguns minutos.',
  'error.INVALID_STATE': 'Isto não pode mais ser feito: o status mudou.',
};

export const KIT_WORDS: Record<Language, typeof es> = { es, 'pt-BR': ptBR, en };
