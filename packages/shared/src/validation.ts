/** Text rules of part 1 §5 and part 2 §5, shared by the forms and the server. */
import { INT4_MAX } from './numbers.js';

export const LIMITS = {
  description: 100,
  familyName: 100,
  moduleName: 24,
  moduleLabel: 40,
  clusterId: 20,
  clusterLabel: 40,
  classificationLabel: 15,
  moduleLabelSearch: 50,
  minValueChars: 9,
} as const;

/** Any of ! @ # $ % ^ & * ( ) + - = [ ] { } ; ' : " \ | , < > / ? ~ or three or more consecutive dots. */
const SPECIAL = /[!@#$%^&*()+\-=[\]{};':"\\|,<>/?~]|\.{3,}/;

const hasSpecialCharacters = (value: string) => SPECIAL.test(value);
const hasSpace = (value: string) => /\s/.test(value);

export const MESSAGES = {
  noSpace: "Attention! You can't add a space!",
  noSpecial: "Attention! You can't use special characters!",
  negativeLength: "Attention! You can't write a negative length!",
  classificationChars: 'Admitted characters: A-Z, 0-9, _, -',
  classificationEmpty: 'Insert a valid client classification name',
  atLeastOneLia: 'At least one lia must be selected',
} as const;

/** A name (module name, cluster id): no spaces, no special characters. Returns the message or null. */
function nameError(value: string): string | null {
  if (hasSpace(value)) return MESSAGES.noSpace;
  if (hasSpecialCharacters(value)) return MESSAGES.noSpecial;
  return null;
}

/** A label (module label, cluster label): no special characters. */
function labelError(value: string): string | null {
  return hasSpecialCharacters(value) ? MESSAGES.noSpecial : null;
}

export const CLASSIFICATION_LABEL = /^[A-Z0-9_-]+$/;

/** A text field of a creation form: its name in messages, its maximum length and its character rule. */
export interface TextRule {
  /** How messages name the field: 'module name', 'cluster label' … */
  field: string;
  max: number;
  /** name: no spaces and no special characters; label: no special characters; text: any. */
  kind: 'name' | 'label' | 'text';
  required?: boolean;
}

/** The first rule a text field breaks, worded for people (forms and server alike); null when fine. */
export function textFieldError(value: string | null | undefined, rule: TextRule): string | null {
  const text = value ?? '';
  if (rule.required && text.trim() === '') return `Insert the ${rule.field}`;
  if (text.length > rule.max) return `The ${rule.field} can have at most ${rule.max} characters`;
  if (rule.kind === 'name') return nameError(text);
  if (rule.kind === 'label') return labelError(text);
  return null;
}

/** Initial size: a whole number, at least 0 ('Attention! You can't write a negative length!'). */
export function initialSizeError(value: number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!Number.isFinite(value)) return 'The initial size must be a number';
  if (value < 0) return MESSAGES.negativeLength;
  if (!Number.isInteger(value)) return 'The initial size must be a whole number';
  // modules.initial_size is an integer column.
  if (value > INT4_MAX) return `The initial size can be at most ${INT4_MAX}`;
  return null;
}

/** Client classification label: A-Z, 0-9, _ and -, at most 15 characters. */
export function classificationLabelError(value: string | null | undefined): string | null {
  const text = value ?? '';
  if (text.trim() === '') return MESSAGES.classificationEmpty;
  if (!CLASSIFICATION_LABEL.test(text)) return MESSAGES.classificationChars;
  if (text.length > LIMITS.classificationLabel) return `The client classification can have at most ${LIMITS.classificationLabel} characters`;
  return null;
}

