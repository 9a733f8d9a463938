import { isGenerated } from "@/lib/domain/fill/kinds.ts";
import { COLUMN_TYPES, COLUMN_TYPE_NAMES, columnType } from "@/lib/domain/column-types/index.ts";
import type { ColumnView } from "../../data/types";
import {
  CalendarIcon,
  CheckboxIcon,
  FileIcon,
  LinkIcon,
  LongTextIcon,
  MailIcon,
  NumberIcon,
  SelectIcon,
  TextIcon,
} from "../../ui/icons";

// The grid's view of a column type comes from the type's own `grid` hints (lib/domain), so a new
// type declares how it renders and edits in one place; this file only maps hints to icons.

export type EditorKind = "text" | "textarea" | "number" | "url" | "checkbox" | "select" | "date" | "file";

const ICONS: Record<EditorKind, (p: { className?: string }) => React.ReactNode> = {
  text: TextIcon,
  textarea: LongTextIcon,
  number: NumberIcon,
  url: LinkIcon,
  checkbox: CheckboxIcon,
  select: SelectIcon,
  date: CalendarIcon,
  file: FileIcon,
};

const WIDTHS: Partial<Record<EditorKind, number>> = { checkbox: 120, number: 140, date: 150, textarea: 300 };

export function gridHints(type: string) {
  return columnType(type)?.grid ?? { align: "left" as const, editor: "text" as const };
}

export function editorKind(column: ColumnView): EditorKind {
  return gridHints(column.type).editor;
}

export function TypeIcon({ type, className }: { type: string; className?: string }) {
  if (type === "email") return <MailIcon className={className} />;
  const Icon = ICONS[gridHints(type).editor] ?? TextIcon;
  return <Icon className={className} />;
}

export const typeLabel = (type: string) => columnType(type)?.label ?? type;

export const TYPE_OPTIONS = COLUMN_TYPE_NAMES.map((name) => ({ value: name, label: COLUMN_TYPES[name].label }));

export function defaultWidth(column: ColumnView): number {
  if (column.isPrimary) return 240;
  return WIDTHS[editorKind(column)] ?? (isGenerated(column) ? 260 : 200);
}

export function selectChoices(column: ColumnView): string[] {
  const raw = column.columnOptions.options;
  return Array.isArray(raw) ? raw.filter((o): o is string => typeof o === "string") : [];
}
