/**
 * True when DATAWORKZ_TEST_VERBOSE is set (to anything but `0`): the suites then print what they
 * injected and how each case ended. A passing run prints nothing of its own otherwise.
 */
export const verbose = !['', '0', 'false'].includes(process.env.DATAWORKZ_TEST_VERBOSE ?? '');
