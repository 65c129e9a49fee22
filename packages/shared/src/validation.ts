/** Text rules of part 1 §5 and part 2 §5, shared by the forms and the server. */

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

export const hasSpecialCharacters = (value: string) => SPECIAL.test(value);
export const hasSpace = (value: string) => /\s/.test(value);

export const MESSAGES = {
  noSpace: "Attention! You can't add a space!",
  noSpecial: "Attention! You can't use special characters!",
  negativeLength: "Attention! You can't write a negative length!",
  classificationChars: 'Admitted characters: A-Z, 0-9, _, -',
  classificationEmpty: 'Insert a valid client classification name',
  atLeastOneLia: 'At least one lia must be selected',
} as const;

/** A name (module name, cluster id): no spaces, no special characters. Returns the message or null. */
export function nameError(value: string): string | null {
  if (hasSpace(value)) return MESSAGES.noSpace;
  if (hasSpecialCharacters(value)) return MESSAGES.noSpecial;
  return null;
}

/** A label (module label, cluster label): no special characters. */
export function labelError(value: string): string | null {
  return hasSpecialCharacters(value) ? MESSAGES.noSpecial : null;
}

export const CLASSIFICATION_LABEL = /^[A-Z0-9_-]+$/;
