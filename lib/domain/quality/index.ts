// The public face of lib/domain/quality/: the only module of it that other layers and aggregates import
// (architecture.test.ts names the few statement modules a lower aggregate composes instead).
export { columnQuality } from "./column-quality.ts";
export { agreementOf, byConfidence, expectedCalibrationError } from "./stats.ts";
export { refitCalibration } from "./calibration.ts";
