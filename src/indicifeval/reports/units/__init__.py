"""The report's analyses, one registered unit each (``reports.registry``): importing this
package registers them, module by module, in the report's order (so the imports stay in it)."""

# isort: skip_file
from indicifeval.reports.units import languages  # noqa: F401  Tables 1 and 2
from indicifeval.reports.units import disparity  # noqa: F401  Δ by language, category, family
from indicifeval.reports.units import keywords  # noqa: F401  keywords, cross-lingual
from indicifeval.reports.units import thinking  # noqa: F401
from indicifeval.reports.units import runs  # noqa: F401  per instruction, run comparison
from indicifeval.reports.units import samples  # noqa: F401  repeated samples: mean, all k, any of k
from indicifeval.reports.units import turns  # noqa: F401  conversations: by turn, decay, forgetting, Δ per turn
