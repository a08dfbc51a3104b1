import ComposeTesting
import DownstreamProfile
import Foundation
import XCTest

final class ProfileXCTests: XCTestCase {
    func testRenameAndSave() {
        withComposeSandbox { sandbox in
            XCTAssertNotNil(ComposeSandbox.current)
            let editor = ProfileEditor()
            let tester = StoreTester(editor.$state)
            tester.run({ editor.rename("Jill") }) { $0.name = "Jill" }
            tester.run({ editor.save() }) { $0.saves = 1 }
            let renames = editor.$state.willChange.record()
            editor.rename("Chris")
            renames.expectCount(1)
            tester.assert {
                $0.name = "Chris"
                $0.saves = 1
            }
        }
        XCTAssertNil(ComposeSandbox.current)
    }

    /// Fails on purpose, only when Scripts/check-downstream asks: the failure must be reported at
    /// the line below, with its message and nothing else.
    func testAWrongAssertionIsReportedHere() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DOWNSTREAM_EXPECT_FAILURE"] != nil)
        let editor = ProfileEditor()
        let tester = StoreTester(editor.$state)
        tester.run({ editor.rename("Jill") }) { $0.name = "Chris" }  // DOWNSTREAM-FAILURE-LINE
    }
}
