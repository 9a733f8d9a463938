// The public face of lib/domain/query/: the only module of it that other layers import.
export { queryRows, readRows } from "./rows-query.ts";
