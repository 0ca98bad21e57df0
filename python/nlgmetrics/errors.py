"""Typed exceptions. Each subclasses the builtin a caller would naturally catch."""


class NlgMetricsError(Exception):
    """Base class of every error nlgmetrics raises on purpose."""


class InvalidInputError(NlgMetricsError, ValueError):
    """The input is well-formed but cannot be scored as given."""


class LengthMismatchError(InvalidInputError):
    """Two sequences that must align (predictions, references, labels) differ in length."""


class MissingReferenceError(InvalidInputError):
    """A prediction has no reference to be compared against."""


class InvalidTextError(InvalidInputError):
    """Text that is not valid Unicode / UTF-8."""


class InvalidOptionError(NlgMetricsError, ValueError):
    """An unknown option, flavour, tokenizer or an out-of-range option value."""


class InputTypeError(NlgMetricsError, TypeError):
    """An input of the wrong type (e.g. a number where a string is expected)."""


class IncompatibleStatsError(NlgMetricsError, ValueError):
    """Statistics of different metrics or configurations cannot be merged."""


class MissingExtraError(NlgMetricsError, ImportError):
    """An optional dependency is needed; the message names the extra to install."""


class InternalError(NlgMetricsError, RuntimeError):
    """A bug in nlgmetrics (the Rust core failed). Please report it."""


class ReferenceOrientationError(InvalidInputError):
    """References that read as sacrebleu-style streams where per-segment lists are expected."""


class UnknownOptionError(InvalidOptionError, TypeError):
    """An option a constructor does not take (a TypeError too, as Python raises for it)."""


class ResourceLimitError(NlgMetricsError, MemoryError):
    """The request needs more memory than the machine has (a huge resample count or
    pairwise matrix); the message names what and how much."""


class EmptyInputError(InvalidInputError):
    """A corpus-level number (a corpus score, a bootstrap, a paired test) asked of no
    segments: undefined for every metric, locally and on every engine (a per-segment call
    of no segments is an empty result instead)."""


class MissingColumnError(InvalidOptionError, InputTypeError):
    """A column a face was told to read (``prediction=``, ``references=``...) is not in
    the table: the same class on every face (pandas, Dask, Ray, Spark)."""
