// The public face of lib/domain/quality/: the only module of it that other layers import.
export { columnQuality } from "./column-quality.ts";
export { agreementOf, byConfidence, expectedCalibrationError } from "./stats.ts";
export { refitCalibration } from "./calibration.ts";
