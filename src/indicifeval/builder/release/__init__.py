"""Releasing reviewed build folders: ``finalize`` turns them into one release, ``publish`` puts it on the hub."""

from indicifeval.builder.licences import KNOWN_LICENCES, licence_of
from indicifeval.builder.release.finalize import RELEASE_INFO, RELEASE_ROWS, FinalizeReport, final_verdict, finalize
from indicifeval.builder.release.publish import publish

__all__ = ["KNOWN_LICENCES", "RELEASE_INFO", "RELEASE_ROWS", "FinalizeReport", "final_verdict", "finalize",
           "licence_of", "publish"]
