/** 0 ok; 1 the model (or, for plan --check, the store) needs attention; 2 usage; 3 anything else. */
export const EXIT_OK = 0;
export const EXIT_MODEL = 1;
export const EXIT_USAGE = 2;
export const EXIT_FAILURE = 3;
