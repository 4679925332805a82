import { sql, SQLite, PostgreSQL, MySQL, type SQLNamespace } from '@codemirror/lang-sql';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { useMemo } from 'react';
import { readCspNonce } from '../../../config/csp-nonce.ts';

// The SQL editor (CodeMirror 6): highlighting in the connection's dialect and completion of its tables and columns.
// Loaded lazily with the editor screen. CodeMirror injects its styles; they carry the page's CSP nonce.

export interface SqlEditorProps {
  value: string;
  onChange: (value: string) => void;
  dialect: 'postgres' | 'mysql' | 'sqlite';
  schema: SQLNamespace;
  label: string;
}

const dialects = { postgres: PostgreSQL, mysql: MySQL, sqlite: SQLite };

// CodeMirror lifts its tooltips (the completion list) to z-index 500, above Mantine's modals (200), so the
// list would draw over a dialog such as "Leave without saving?". Below the modals, above the header (100).
const tooltipLayer = EditorView.theme({ '.cm-tooltip': { zIndex: 150 } });

// Typing over a selection is left to the browser by default, and Chromium's editing then writes a span with an
// inline style attribute (to keep the replaced text's look), which the page's CSP refuses (a violation each time).
// The editor replaces the selection itself instead, as the same typing input.
const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (event.inputType !== 'insertText' || !event.data || view.state.selection.ranges.every((r) => r.empty))
      return false;
    event.preventDefault();
    view.dispatch(
      view.state.update(view.state.replaceSelection(event.data), { scrollIntoView: true, userEvent: 'input.type' }),
    );
    return true;
  },
});

export function SqlEditor({ value, onChange, dialect, schema, label }: SqlEditorProps) {
  const extensions = useMemo(() => {
    const nonce = readCspNonce();
    return [
      sql({ dialect: dialects[dialect], schema, upperCaseKeywords: false }),
      EditorView.lineWrapping,
      tooltipLayer,
      typeOverSelection,
      EditorView.contentAttributes.of({ 'aria-label': label }),
      ...(nonce ? [EditorView.cspNonce.of(nonce)] : []),
    ];
  }, [dialect, schema, label]);
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      minHeight="180px"
      maxHeight="480px"
      basicSetup={{ foldGutter: false, highlightActiveLine: false }}
    />
  );
}

export default SqlEditor;
