import { createStore, useStore } from '../../lib/store';

/** The global alert bar's content (spec part 1 §8 "Other failures"): one message, closable. */
interface AlertMessage {
  id: number;
  title: string;
  message: string;
}

const alertStore = createStore<AlertMessage | null>(null);
let nextId = 1;

export function showAlert(message: string, title = 'Something went wrong'): void {
  alertStore.set({ id: nextId++, title, message });
}

export function closeAlert(): void {
  alertStore.set(null);
}

export function getAlert(): AlertMessage | null {
  return alertStore.get();
}

export function useAlert(): AlertMessage | null {
  return useStore(alertStore, (alert) => alert);
}
