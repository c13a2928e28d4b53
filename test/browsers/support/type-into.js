// Typing into a field as a user would (value, then input and change events), from inside the
// page: the same in Firefox (Marionette), WebKitGTK (WebDriver) and Chromium, whose drivers
// disagree on how keystrokes reach a field.

/**
 * @param {{ evaluate: (fn: Function, arg?: any) => Promise<any> }} page
 * @param {string} selector
 * @param {string} value
 */
export const typeInto = (page, selector, value) =>
  page.evaluate(
    ({ selector: sel, value: text }) => {
      const field = /** @type {HTMLInputElement} */ (document.querySelector(sel));
      field.focus();
      field.value = text;
      field.dispatchEvent(new Event('input', { bubbles: true }));
      field.dispatchEvent(new Event('change', { bubbles: true }));
      return true;
    },
    { selector, value },
  );
