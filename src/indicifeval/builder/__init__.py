"""Building datasets: a build folder per language whose stages record what they were made
from, resume when run again the same way, and refuse (or, with force, restart and mark later
stages stale) when run another way. The Trans and Ground pipelines register their stages here."""

from indicifeval.builder.project import BuildFolder, BuildMismatch, StageRecord
from indicifeval.builder.stages import STAGES, Stage, StageContext, run_stage, stage

__all__ = ["STAGES", "BuildFolder", "BuildMismatch", "Stage", "StageContext", "StageRecord", "run_stage", "stage"]
