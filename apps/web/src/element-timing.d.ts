// The Element Timing API's attribute (https://w3c.github.io/element-timing/): React passes it to the
// DOM as is; the module page benchmark reads when the element marked with it was painted.
import 'react';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- an augmentation repeats React's type parameter by name
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
