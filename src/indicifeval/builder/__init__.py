"""Building datasets: a build folder per language whose stages record what they were made
from (by content), resume when run again, and run again (saying why, marking later stages
stale) when an input changed or they are forced; paid-for results are cached across reruns.
The Trans and Ground pipelines register their stages here."""

from indicifeval.builder.project import BuildFolder, StageRecord
from indicifeval.builder.stages import STAGES, Stage, StageCall, StageContext, run_pipeline, run_stage, stage

__all__ = ["STAGES", "BuildFolder", "Stage", "StageCall", "StageContext", "StageRecord", "run_pipeline", "run_stage",
           "stage"]
